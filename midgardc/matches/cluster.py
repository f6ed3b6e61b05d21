"""Play a run's games on a Dask distributed cluster (``--cluster ADDRESS``, or ``local``).

A remote worker need not share our filesystem: the spec file's bytes (and those of any
file it ``extends:``) travel with the job and are unpacked into a temporary directory on
the worker, under the same file name, so the generated engine and its content-hashed
cache entry are the same as here. Games are sent in small batches, a bounded number in
flight, and results are handed back as batches finish; the caller folds them in game
order, so the output does not depend on the cluster. (A ``script:PATH`` player is the
exception: its file is read on the worker, so remote workers need it at the same path.)
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import tempfile
import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional, Sequence, Union

from ..errors import MidgardcError
from ..fileio import read_input
from .results import GameResult
from .runner import Failure, GameTask, RunConfig, Workshop, open_workshop, play_safely

MAX_LOCAL_WORKERS = 256  # local:K; more is a typo, not a machine
CONNECT_TIMEOUT = 10  # seconds to reach a scheduler before giving up with a message
_ADDRESS = re.compile(r"^(?:(tcp|tls|ucx|ws|wss)://)?\[?[A-Za-z0-9._:-]+\]?:\d{1,5}$")
_LOCAL = re.compile(r"^local(?::(\d+))?$")


@dataclass(frozen=True)
class ClusterTarget:
    """Where to run: a scheduler's address, or a LocalCluster of ``local_workers`` processes
    started for this run (None: one per CPU)."""

    address: Optional[str]
    local_workers: Optional[int] = None

    @property
    def label(self) -> str:
        if self.address:
            return self.address
        return "local" + (f":{self.local_workers}" if self.local_workers else "")


def parse_cluster(text: str) -> ClusterTarget:
    """``tcp://host:port`` (``host:port`` means tcp), ``local`` or ``local:K``."""
    text = text.strip()
    local = _LOCAL.match(text)
    if local:
        digits = local.group(1)
        k = None if digits is None else int(digits[:7])  # (7 digits are already too many)
        if k is not None and not 1 <= k <= MAX_LOCAL_WORKERS:
            raise MidgardcError(f"--cluster local:K starts K worker processes here: K is 1 to {MAX_LOCAL_WORKERS}")
        return ClusterTarget(None, k)
    if _ADDRESS.match(text):
        port = int(text.rsplit(":", 1)[1])
        if not 1 <= port <= 65535:
            raise MidgardcError(f"--cluster: port {port} is not a TCP port (1 to 65535)")
        return ClusterTarget(text if "://" in text else f"tcp://{text}")
    raise MidgardcError(f"--cluster takes a scheduler address like tcp://HOST:PORT, or 'local' / 'local:K' (got '{text}')")


# -- the spec, shipped by value -------------------------------------------------------------


@dataclass(frozen=True)
class SpecBundle:
    """A spec file and the files it extends, as bytes, relative to the spec's directory."""

    name: str  # the spec's file name
    files: tuple[tuple[str, bytes], ...]  # (relative path, bytes); the spec itself first
    depth: int  # how many '..' levels the extends chain climbs above the spec's directory
    digest: str


def bundle_spec(path: str) -> SpecBundle:
    import hashlib

    from ..errors import SpecError
    from ..spec.variants import extends_target
    from ..spec.yamlpos import MAX_SPEC_BYTES, YMap, load_yaml

    home = os.path.dirname(os.path.abspath(path))
    root = os.path.dirname(os.path.realpath(path))
    files: list[tuple[str, bytes]] = []
    seen: set[str] = set()
    current: Optional[str] = os.path.abspath(path)
    while current is not None and current not in seen:
        seen.add(current)
        data = read_input(current, "the spec", MAX_SPEC_BYTES, SpecError)
        files.append((os.path.relpath(current, home), data))
        tree = load_yaml(current)
        ext = tree.get("extends") if isinstance(tree, YMap) else None
        current = os.path.abspath(extends_target(current, root, ext)) if ext is not None else None
    depth = max(_ups(rel) for rel, _ in files)
    digest = hashlib.sha256(repr([(rel, hashlib.sha256(b).hexdigest()) for rel, b in files]).encode()).hexdigest()
    return SpecBundle(os.path.basename(path), tuple(files), depth, digest)


def _ups(rel: str) -> int:
    parts = rel.split(os.sep)
    n = 0
    while n < len(parts) and parts[n] == os.pardir:
        n += 1
    return n


_unpacked: dict[str, str] = {}
_unpack_lock = threading.Lock()


def unpack(bundle: SpecBundle) -> str:
    """The spec's path in this process's copy of the bundle (made once per process)."""
    with _unpack_lock:
        path = _unpacked.get(bundle.digest)
        if path is None:
            root = tempfile.mkdtemp(prefix="midgardc-spec-")
            home = os.path.join(root, *(["d"] * bundle.depth))
            for rel, data in bundle.files:
                target = os.path.normpath(os.path.join(home, rel))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as fh:
                    fh.write(data)
            path = _unpacked[bundle.digest] = os.path.join(home, bundle.name)
        return path


# -- on a worker --------------------------------------------------------------------------------

_local = threading.local()  # a Dask worker may run tasks in several threads: one Workshop each


def play_batch(job: tuple[RunConfig, SpecBundle], tasks: Sequence[GameTask]) -> list[Union[GameResult, Failure]]:
    """Runs on a Dask worker: play ``tasks``, loading each game once per worker thread."""
    config, bundle = job
    shops = getattr(_local, "shops", None)
    if shops is None:
        shops = _local.shops = {}
    key = (bundle.digest, config)
    shop: Union[Workshop, Failure, None] = shops.get(key)
    if shop is None:
        try:
            spec_path = unpack(bundle)
        except OSError as exc:
            shop = Failure(f"a Dask worker cannot unpack the spec: {exc}")
        else:
            shop = open_workshop(config, spec_path)
        shops[key] = shop
    return [play_safely(shop, task) for task in tasks]


# -- on the client ------------------------------------------------------------------------------


def _probe(address: str, timeout: float) -> None:
    """A refused connection or an unknown host is certain at once: say so, rather than
    after Dask's connection retries have used up the whole timeout."""
    import socket

    m = re.match(r"^tcp://\[?(.+?)\]?:(\d+)$", address)
    if not m:
        return  # tls://, ucx://, ...: Dask's own connect reports
    try:
        with socket.create_connection((m.group(1), int(m.group(2))), timeout=timeout):
            pass
    except (ConnectionRefusedError, socket.gaierror) as exc:
        why = "connection refused" if isinstance(exc, ConnectionRefusedError) else f"unknown host '{m.group(1)}'"
        raise MidgardcError(
            f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({why})",
            hint="start one with 'dask scheduler' (and 'dask worker ADDRESS'), or use --cluster local",
        ) from None
    except (OSError, ValueError):
        return  # a timeout or an unreachable network: Dask's connect tries again and reports


def run_on_cluster(
    target: ClusterTarget,
    config: RunConfig,
    tasks: Sequence[GameTask],
    take: Callable[[GameResult], None],
    connect_timeout: Optional[float] = None,
) -> None:
    """Play ``tasks`` on the cluster; ``take`` sees every result (batches in any order)."""
    timeout = CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise MidgardcError(
            "--cluster needs Dask's distributed scheduler, which is not installed",
            hint="install midgardc[cluster] (pip install 'midgardc[cluster]')",
        ) from None
    if not tasks:
        return
    bundle = bundle_spec(config.spec)
    quiet = _Quiet()
    cluster: Any = None
    client: Any = None
    pending: list[Any] = []
    try:
        if target.address is None:
            workers = target.local_workers or os.cpu_count() or 1
            with _sigint_ignored():  # worker processes inherit it: Ctrl-C is the client's to handle
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR)
            client = Client(cluster)
        else:
            _probe(target.address, timeout)
            try:
                client = Client(target.address, timeout=timeout)
            except Exception as exc:  # noqa: BLE001 - a peer that is not a scheduler can raise anything (MemoryError, ...)
                if isinstance(exc, (OSError, TimeoutError, ValueError)):
                    why = f" within {timeout:g} s" + ("" if "timed out" in str(exc).lower() else f" ({exc})")
                else:
                    why = f": what answers there does not speak Dask's protocol ({type(exc).__name__})"
                raise MidgardcError(
                    f"cannot reach the Dask scheduler at {target.address}{why}",
                    hint="start one with 'dask scheduler' (and 'dask worker ADDRESS'), or use --cluster local",
                ) from None
        if not client.nthreads():
            try:
                client.wait_for_workers(1, timeout=3 * timeout)
            except (OSError, TimeoutError):
                raise MidgardcError(f"the Dask scheduler at {target.label} has no workers (waited {3 * timeout:g} s)", hint="start some with 'dask worker ADDRESS'") from None
        threads = max(1, sum(client.nthreads().values()))
        size = max(1, min(16, len(tasks) // (threads * 8)))
        batches = [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]
        [job] = client.scatter([(config, bundle)], broadcast=True, hash=False)
        window = 4 * threads  # batches in flight: enough to keep workers busy, few to cancel
        queue = iter(batches)
        first = [client.submit(play_batch, job, b, pure=False) for b in _take(queue, window)]
        pending = list(first)
        done = as_completed(first)
        for future in done:
            pending.remove(future)
            try:
                results = future.result()
            except Exception as exc:  # a worker lost, the scheduler gone, ...: not our games' fault
                raise MidgardcError(f"the Dask cluster could not play a batch of games: {type(exc).__name__}: {exc}") from None
            for result in results:
                if isinstance(result, Failure):
                    result.raise_it()
                take(result)
            for b in _take(queue, 1):
                nxt = client.submit(play_batch, job, b, pure=False)
                pending.append(nxt)
                done.add(nxt)
    finally:
        for future in pending:
            future.cancel()
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
        quiet.restore()


def _take(it: Any, n: int) -> list:
    out = []
    for item in it:
        out.append(item)
        if len(out) == n:
            break
    return out


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while local worker processes start (they keep the disposition), so a
    terminal's Ctrl-C, sent to the whole process group, stops the run here, once, instead
    of printing a traceback from every worker."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, saved)


class _Quiet:
    """Dask logs connection chatter at INFO/WARNING on stderr; a CLI run wants only errors."""

    def __init__(self) -> None:
        self.saved = {}
        for name in ("distributed", "bokeh", "tornado"):
            logger = logging.getLogger(name)
            self.saved[name] = logger.level
            logger.setLevel(logging.ERROR)

    def restore(self) -> None:
        for name, level in self.saved.items():
            logging.getLogger(name).setLevel(level)
