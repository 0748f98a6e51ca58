"""Train and evaluate an MLP on scikit-learn's digits with mb, written as for Keras 3.

    MB_BACKEND=jax python examples/digits.py        # or torch, tensorflow

The same program as ``mb quickstart``, spelled out: prints the test accuracy and
the training time, and saves the model to ``digits.keras`` (Keras 3 loads it too).
"""

import argparse
import time

from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import mb as keras


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--out", default="digits.keras")
    args = parser.parse_args()

    digits = load_digits()
    x = (digits.data / 16.0).astype("float32")
    y = digits.target.astype("int32")
    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.25, random_state=0)

    model = keras.Sequential(
        [
            keras.Input((64,)),
            keras.layers.Dense(128, activation="relu"),
            keras.layers.Dense(64, activation="relu"),
            keras.layers.Dense(10, activation="softmax"),
        ]
    )
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    start = time.perf_counter()
    model.fit(x_train, y_train, batch_size=args.batch_size, epochs=args.epochs, verbose="auto")
    elapsed = time.perf_counter() - start
    logs = model.evaluate(x_test, y_test, verbose=0, return_dict=True)
    model.save(args.out)
    restored = keras.models.load_model(args.out)
    check = restored.evaluate(x_test, y_test, verbose=0, return_dict=True)
    print(
        f"backend={keras.config.backend()} test_accuracy={logs['accuracy']:.4f} "
        f"reloaded_accuracy={check['accuracy']:.4f} train_time={elapsed:.1f}s saved={args.out}"
    )


if __name__ == "__main__":
    main()
