"""Train and evaluate an MLP on scikit-learn's digits with mb, on the active backend.

    MB_BACKEND=jax python examples/digits.py        # or torch, tensorflow

Prints the test accuracy and the wall time, and saves the weights to
``digits.weights.npz`` (written through a temporary file, then renamed).
"""

import argparse
import time

from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import mb_layers
from mb_ops import config
from mb_train.callbacks._files import save_weights_file
from mb_train.models import Sequential


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--out", default="digits.weights.npz")
    args = parser.parse_args()

    digits = load_digits()
    x = (digits.data / 16.0).astype("float32")
    y = digits.target.astype("int32")
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.25, random_state=0)

    model = Sequential(
        [
            mb_layers.Input((64,)),
            mb_layers.layers.Dense(128, activation="relu"),
            mb_layers.layers.Dense(64, activation="relu"),
            mb_layers.layers.Dense(10, activation="softmax"),
        ]
    )
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    start = time.perf_counter()
    model.fit(
        x_train,
        y_train,
        batch_size=args.batch_size,
        epochs=args.epochs,
        validation_split=0.1,
        verbose="auto",
    )
    logs = model.evaluate(x_test, y_test, verbose=0, return_dict=True)
    elapsed = time.perf_counter() - start
    save_weights_file(model, args.out)
    print(
        f"backend={config.backend()} test_accuracy={logs['accuracy']:.4f} "
        f"test_loss={logs['loss']:.4f} wall_time={elapsed:.1f}s weights={args.out}"
    )


if __name__ == "__main__":
    main()
