"""The training loop and the pure, compiled step it runs."""

from mb_train._trainer._gradients import value_and_gradients as value_and_gradients
