"""``mb quickstart``: train, evaluate and save a real model on the active backend.

The data set is the 1,797 handwritten 8x8 digits that scikit-learn also ships (UCI,
CC BY 4.0; see ``_data/DIGITS.md``). mb ships its own 45 KB copy, so the quickstart
needs nothing beyond mb and downloads nothing. The program is written exactly as a
Keras 3 user would write it, through ``import mb as keras``.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

_MISSING_FOLDER = (
    "mb quickstart: the folder {folder!r} for --out {out!r} does not exist. Create it "
    "first, choose another path, or pass --parents to let mb create it."
)


@dataclass
class QuickstartResult:
    backend: str
    accuracy: float
    loss: float
    train_seconds: float
    saved_to: str


def load_digits():
    """The shipped digits: `data` (1797, 64) uint8 pixel counts 0..16, `target` (1797,)."""
    with (
        resources.files("mb").joinpath("_data", "digits.npz").open("rb") as file,
        np.load(file) as arrays,
    ):
        return arrays["data"], arrays["target"]


def load_digits_split(seed: int = 0):
    """The digits, scaled to [0, 1], split 75/25 into train and test (fixed seed)."""
    data, target = load_digits()
    x = (data / 16.0).astype("float32")
    y = target.astype("int32")
    order = np.random.default_rng(seed).permutation(len(x))
    split = int(len(x) * 0.75)
    train, test = order[:split], order[split:]
    return (x[train], y[train]), (x[test], y[test])


def run(epochs: int = 20, batch_size: int = 32, out: str = "digits.keras", verbose="auto"):
    """Trains an MLP on the digits, evaluates it on held-out data, saves it to `out`."""
    import mb as keras

    (x_train, y_train), (x_test, y_test) = load_digits_split()
    keras.utils.set_random_seed(0)
    model = keras.Sequential(
        [
            keras.Input((64,)),
            keras.layers.Dense(128, activation="relu"),
            keras.layers.Dropout(0.1),
            keras.layers.Dense(64, activation="relu"),
            keras.layers.Dense(10, activation="softmax"),
        ],
        name="digits_mlp",
    )
    model.compile(
        optimizer=keras.optimizers.Adam(1e-3),
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
    )
    start = time.perf_counter()
    model.fit(
        x_train,
        y_train,
        batch_size=batch_size,
        epochs=epochs,
        validation_split=0.1,
        verbose=verbose,
    )
    train_seconds = time.perf_counter() - start
    logs = model.evaluate(x_test, y_test, verbose=0, return_dict=True)
    model.save(out)
    return QuickstartResult(
        backend=keras.config.backend(),
        accuracy=float(logs["accuracy"]),
        loss=float(logs["loss"]),
        train_seconds=train_seconds,
        saved_to=out,
    )


def add_parser(sub) -> None:
    parser = sub.add_parser(
        "quickstart",
        help="train and evaluate an MLP on the handwritten digits (shipped), then save it",
        description=(
            "Train an MLP on 1,347 of the 1,797 8x8 handwritten digits that mb ships, "
            "evaluate it on the other 450, print the test accuracy and save the model."
        ),
    )
    parser.add_argument(
        "--epochs", type=int, default=20, help="passes over the training digits (default: 20)"
    )
    parser.add_argument(
        "--batch-size", type=int, default=32, help="digits per training step (default: 32)"
    )
    parser.add_argument(
        "--out",
        default="digits.keras",
        help="where to save the model, a .keras file (default: digits.keras)",
    )
    parser.add_argument(
        "--parents",
        action="store_true",
        help="create the folder of --out if it does not exist (without it, a missing "
        "folder is an error)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    parser.set_defaults(func=_cmd_quickstart)


def _cmd_quickstart(args: argparse.Namespace) -> int:
    folder = Path(args.out).parent
    if not folder.is_dir():
        if not args.parents:
            print(_MISSING_FOLDER.format(folder=str(folder), out=args.out), file=sys.stderr)
            return 2
        folder.mkdir(parents=True)
    result = run(
        epochs=args.epochs,
        batch_size=args.batch_size,
        out=args.out,
        verbose=0 if args.quiet else "auto",
    )
    print(
        f"backend={result.backend} test_accuracy={result.accuracy:.4f} "
        f"test_loss={result.loss:.4f} train_time={result.train_seconds:.1f}s "
        f"saved={result.saved_to}"
    )
    return 0
