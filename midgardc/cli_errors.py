"""The command line's error policy, in one place (black's exit codes).

0: success. 1: anything the user can fix: a bad spec, option, move, file or script
(MidgardcError, click usage errors, OSError) — one message on stderr, no traceback.
123: a bug in midgardc — "internal error", a request to report it, and the traceback
only when MIDGARDC_TRACEBACK=1. 130: interrupted with Ctrl-C.
"""

from __future__ import annotations

import errno
import os
import traceback
from typing import IO, Any, Optional

import click

from .errors import MidgardcError

EXIT_USER = 1
EXIT_INTERNAL = 123
EXIT_INTERRUPTED = 130
TRACEBACK_ENV = "MIDGARDC_TRACEBACK"


class UserError(click.ClickException):
    """A MidgardcError (or OSError) on its way out: its text is already complete."""

    exit_code = EXIT_USER

    def show(self, file: Optional[IO[Any]] = None) -> None:
        click.echo(self.message, err=True)


class InternalError(click.ClickException):
    exit_code = EXIT_INTERNAL

    def __init__(self, exc: BaseException):
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        super().__init__(detail)
        self.tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))

    def show(self, file: Optional[IO[Any]] = None) -> None:
        if os.environ.get(TRACEBACK_ENV):
            click.echo(self.tb.rstrip(), err=True)
        click.echo(f"internal error: {self.message}", err=True)
        click.echo(
            "This is a bug in midgardc. Please report it with the command you ran"
            + ("" if os.environ.get(TRACEBACK_ENV) else f" and the traceback from {TRACEBACK_ENV}=1")
            + ".",
            err=True,
        )


def os_error_text(exc: OSError) -> str:
    where = f"{exc.filename}: " if exc.filename else ""
    return f"error: {where}{exc.strerror or exc}"


class MidgardcGroup(click.Group):
    """A click group that applies the policy above to every subcommand."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as exc:
            exc.exit_code = EXIT_USER
            raise

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            exc.exit_code = EXIT_USER
            raise
        except (click.exceptions.Exit, click.Abort, click.ClickException):
            raise
        except MidgardcError as exc:
            raise UserError(str(exc)) from None
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
        except OSError as exc:
            if exc.errno == errno.EPIPE:
                raise  # click quiets a closed pipe (midgardc ... | head)
            raise UserError(os_error_text(exc)) from None
        except Exception as exc:
            raise InternalError(exc) from None
