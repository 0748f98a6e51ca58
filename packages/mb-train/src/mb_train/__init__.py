"""mb-train: Model, compile/fit/evaluate/predict, losses, metrics, optimizers, callbacks."""
