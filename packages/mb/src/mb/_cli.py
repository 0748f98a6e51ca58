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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mb", description="mb: Keras 3's API on every engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="versions of mb and the engines, the backend, its devices")
    info.add_argument("--json", action="store_true", help="print the report as JSON")
    info.set_defaults(func=_cmd_info)
    _quickstart.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
