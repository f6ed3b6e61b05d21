"""Compile one Cython module in a scratch directory (run as a child process by build.py).

Usage: python _buildext.py WORKDIR MODULE OPTIONS_JSON

Translates WORKDIR/MODULE.pyx with Cython and compiles and links the C in one call of the
C compiler, with Python's own flags (sysconfig: CC, CFLAGS, CCSHARED, LDSHARED, so
-fwrapv and the rest are as setuptools would give them) and then ours, leaving the
extension in WORKDIR. Importing setuptools and running build_ext cost about 1.3 s of a
build on a loaded 2-core machine (docs/design.md, "Building engines"), so they are used
only where that recipe does not apply (MSVC on Windows). It runs in its own process so the
compiler's chatter can be captured whole (and shown only when something fails), and so an
interrupted build cannot leave a half-loaded module behind. It imports nothing from
midgardc.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import sysconfig


def cythonize(name: str, directives: dict) -> None:
    """MODULE.pyx -> MODULE.c (raises SystemExit(1) with Cython's errors printed)."""
    from Cython.Compiler.Main import CompilationOptions, compile_single, default_options

    options = CompilationOptions(default_options, compiler_directives=directives, language_level=3)
    result = compile_single(os.path.abspath(name + ".pyx"), options, full_module_name=name)
    if result.num_errors:
        raise SystemExit(1)


def compile_direct(name: str, cflags: list[str]) -> int:
    """MODULE.c -> MODULE<EXT_SUFFIX> in one compiler call (compile and link)."""
    get = sysconfig.get_config_var
    cc = shlex.split(os.environ.get("CC") or get("CC") or "cc")
    ldshared = shlex.split(get("LDSHARED") or "cc -shared")[1:]  # (its own compiler word dropped: ours is CC)
    include = sysconfig.get_paths()["include"]
    out = name + (get("EXT_SUFFIX") or ".so")
    cmd = [
        *cc,
        *shlex.split(get("CFLAGS") or ""),
        *shlex.split(get("CCSHARED") or ""),
        f"-I{include}",
        *cflags,
        *ldshared,
        name + ".c",
        "-o",
        out,
    ]
    return subprocess.call(cmd)


def compile_setuptools(workdir: str, name: str, options: dict) -> int:
    """The portable way (any compiler setuptools knows, MSVC included)."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    class BuildExt(build_ext):
        def build_extensions(self) -> None:
            flags = options["msvc_flags"] if self.compiler.compiler_type == "msvc" else options["cflags"]
            for ext in self.extensions:
                ext.extra_compile_args = list(flags)
            super().build_extensions()

    ext = Extension(name, [name + ".c"])
    dist = Distribution({"name": name, "ext_modules": [ext], "script_name": "midgardc-build"})
    cmd = BuildExt(dist)
    cmd.inplace = False
    cmd.build_lib = workdir
    cmd.build_temp = os.path.join(workdir, "objects")
    cmd.force = True
    cmd.ensure_finalized()
    cmd.run()
    return 0


def main(argv: list[str]) -> int:
    workdir, name, options = argv[1], argv[2], json.loads(argv[3])
    os.chdir(workdir)
    cythonize(name, options["directives"])
    sys.stdout.flush()
    if os.name == "nt" or not sysconfig.get_config_var("LDSHARED"):
        return compile_setuptools(workdir, name, options)
    return compile_direct(name, options["cflags"])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
