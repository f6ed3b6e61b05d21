"""The code generator by concern: each module emits the C of one kind of construct, and the
Python meaning of the same construct lives in the file of the same name under
``midgardc/runtime/rules/`` (the templates in ``templates/`` carry the same names where a
construct has C of its own):

===================  ======================================  ===========================
``emit/``            what it emits                           ``runtime/rules/``
===================  ======================================  ===========================
``expressions.py``   operators, calls, definitions,          ``expressions.py``
                     quantifiers (lifted functions)
``cellsets.py``      one-cell conditions as bitboards,       (an optimisation: same
                     constant masks                          meaning as expressions)
``effects.py``       one statement per effect, if/for_each   ``effects.py``
``captures.py``      remove (one cell or each found)         ``captures.py``
``regions.py``       assess_regions searches                 ``regions.py``
``zones.py``         zone tables and zone effects            ``zones.py``
``moves.py``         move ids, parameter loops, hoisting     ``moves.py``
===================  ======================================  ===========================

``common.py`` holds what they share (C text helpers, unparsing for comments, the small
records). ``compiler/codegen.py`` composes the emitters into ``ExprCompiler`` and renders the
sections of a module in order.
"""
