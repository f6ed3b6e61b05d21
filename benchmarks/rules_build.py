"""Cold builds of rules modules with the generic engine already cached. Opt-in (it times
things; tests never do):

    PYTHONPATH=. .venv/bin/python benchmarks/rules_build.py SPEC [SPEC ...]

For each spec: a fresh cache directory holding only the generic module, then
``build_engine``: the render of the rules module's source (seconds in this process) and
its build (cython + cc, CPU seconds of the child processes, and wall seconds). On a
loaded machine read the CPU seconds: the build is one thread, so on a quiet machine its
wall time is about its CPU time.
"""

from __future__ import annotations

import os
import resource
import shutil
import sys
import tempfile
import time

from midgardc.compiler import build
from midgardc.spec.lower import load_game_ir


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(specs: list[str]) -> None:
    generic = build.build_generic().__file__
    for spec in specs:
        cache = tempfile.mkdtemp(prefix="midgardc-cold-")
        try:
            for path in (generic, generic + ".sha256"):
                shutil.copy(path, cache)
            os.environ["MIDGARDC_CACHE"] = cache
            ir = load_game_ir(spec)
            start, cpu = time.perf_counter(), time.process_time()
            text = build.generate_source(ir)
            render_wall, render_cpu = time.perf_counter() - start, time.process_time() - cpu
            start, child = time.perf_counter(), children_cpu()
            build.build_engine(ir, text=text)
            wall, cc = time.perf_counter() - start, children_cpu() - child
            print(f"{os.path.basename(spec):24s} render {render_cpu:5.2f} s cpu ({render_wall:5.2f} wall)  build {cc:5.2f} s cpu ({wall:5.2f} wall)", flush=True)
        finally:
            shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
