"""Compile one Cython module in a scratch directory (run as a child process by build.py).

Usage: python _buildext.py WORKDIR MODULE OPTIONS_JSON

Runs cythonize + setuptools build_ext on WORKDIR/MODULE.pyx and leaves the extension in
WORKDIR. It runs in its own process so the compiler's chatter can be captured whole (and
shown only when something fails), and so an interrupted build cannot leave a half-loaded
module behind. It imports nothing from midgardc.
"""

from __future__ import annotations

import json
import os
import sys


def main(argv: list[str]) -> int:
    workdir, name, options = argv[1], argv[2], json.loads(argv[3])
    os.chdir(workdir)

    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    class BuildExt(build_ext):
        def build_extensions(self) -> None:
            flags = options["msvc_flags"] if self.compiler.compiler_type == "msvc" else options["cflags"]
            for ext in self.extensions:
                ext.extra_compile_args = list(flags)
            super().build_extensions()

    ext = Extension(name, [name + ".pyx"])
    modules = cythonize([ext], compiler_directives=options["directives"], quiet=True, force=True)
    dist = Distribution({"name": name, "ext_modules": modules, "script_name": "midgardc-build"})
    cmd = BuildExt(dist)
    cmd.inplace = False
    cmd.build_lib = workdir
    cmd.build_temp = os.path.join(workdir, "objects")
    cmd.force = True
    cmd.ensure_finalized()
    cmd.run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
