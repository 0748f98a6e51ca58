"""The ``mb`` command line."""

from __future__ import annotations

import argparse
import json
import sys

from mb import _info, _quickstart


def _cmd_info(args: argparse.Namespace) -> int:
    info = _info.collect()
    if args.json:
        print(json.dumps(info.as_dict(), indent=2))
    else:
        print(_info.render(info))
    return 1 if info.error else 0


def _cmd_inspect(args: argparse.Namespace) -> int:
    # Reads only the archive's JSON and the HDF5 headers: no code from the file runs.
    # Imported here, not at the top: mb_saving loads the backend (layers are engine
    # modules on torch), and `mb info` must work when the configured backend is broken.
    import mb_saving

    try:
        info = mb_saving.inspect(args.file)
    except (mb_saving.FileFormatError, FileNotFoundError, ValueError) as error:
        print(f"mb inspect: {error}", file=sys.stderr)
        return 2
    print(
        json.dumps(info, indent=2, default=str) if args.json else mb_saving.format_inspection(info)
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mb", description="mb: Keras 3's API on every engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="versions of mb and the engines, the backend, its devices")
    info.add_argument("--json", action="store_true", help="print the report as JSON")
    info.set_defaults(func=_cmd_info)
    _quickstart.add_parser(sub)
    inspect = sub.add_parser(
        "inspect", help="what a .keras or .weights.h5 file holds, without running any of it"
    )
    inspect.add_argument("file", help="a .keras archive, a model folder or a .weights.h5 file")
    inspect.add_argument("--json", action="store_true", help="print the report as JSON")
    inspect.set_defaults(func=_cmd_inspect)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
