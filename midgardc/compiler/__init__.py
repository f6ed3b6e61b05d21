"""The compiled back end: IR -> Cython source (``codegen``) -> cached extension module (``build``)."""
