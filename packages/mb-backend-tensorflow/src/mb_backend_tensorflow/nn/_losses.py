"""Cross-entropies, CTC loss and decoding, and PSNR."""

import math

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import floatx, result_type, standardize_dtype
from mb_ops import config


def _check_same_shape(name, target, output, rank_only=False):
    if target.shape.rank != output.shape.rank:
        raise ValueError(
            f"{name}: target and output must have the same rank. Received target.shape="
            f"{target.shape.as_list()}, output.shape={output.shape.as_list()}."
        )
    for a, b in zip(target.shape, output.shape, strict=True):
        if a is not None and b is not None and a != b:
            raise ValueError(
                f"{name}: target and output must have the same shape. Received target.shape="
                f"{target.shape.as_list()}, output.shape={output.shape.as_list()}."
            )


def _float_pair(target, output):
    output = convert_to_tensor(output)
    if not output.dtype.is_floating:
        output = tf.cast(output, floatx())
    return tf.cast(convert_to_tensor(target), output.dtype), output


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = _float_pair(target, output)
    if target.shape.rank < 1:
        raise ValueError(
            "categorical_crossentropy needs tensors of rank >= 1. Received target.shape="
            f"{target.shape.as_list()}."
        )
    _check_same_shape("categorical_crossentropy", target, output)
    if from_logits:
        return tf.nn.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = output / tf.reduce_sum(output, axis=axis, keepdims=True)
    eps = config.epsilon()
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    return -tf.reduce_sum(target * tf.math.log(output), axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    output = convert_to_tensor(output)
    if not output.dtype.is_floating:
        output = tf.cast(output, floatx())
    if axis not in (-1, output.shape.rank - 1):
        raise ValueError(
            f"sparse_categorical_crossentropy supports only axis=-1. Received: axis={axis}."
        )
    target = tf.cast(convert_to_tensor(target), "int64")
    if target.shape.rank == output.shape.rank and target.shape[-1] == 1:
        target = tf.squeeze(target, -1)
    if target.shape.rank != output.shape.rank - 1:
        raise ValueError(
            "sparse_categorical_crossentropy needs target of rank output.ndim - 1. Received "
            f"target.shape={target.shape.as_list()}, output.shape={output.shape.as_list()}."
        )
    if not from_logits:
        eps = config.epsilon()
        output = tf.math.log(tf.clip_by_value(output, eps, 1.0 - eps))
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)


def binary_crossentropy(target, output, from_logits=False):
    target, output = _float_pair(target, output)
    _check_same_shape("binary_crossentropy", target, output)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = config.epsilon()
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    return -(target * tf.math.log(output) + (1.0 - target) * tf.math.log(1.0 - output))


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    output = convert_to_tensor(output)
    result_dtype = result_type(standardize_dtype(output.dtype), "float32")
    compute = "float32" if result_dtype == "float64" else result_dtype
    loss = tf.nn.ctc_loss(
        labels=tf.cast(convert_to_tensor(target), "int32"),
        logits=tf.cast(output, compute),
        label_length=tf.cast(convert_to_tensor(target_length), "int32"),
        logit_length=tf.cast(convert_to_tensor(output_length), "int32"),
        blank_index=mask_index,
        logits_time_major=False,
    )
    return tf.cast(loss, result_dtype)


def ctc_decode(
    inputs,
    sequence_lengths,
    strategy="greedy",
    beam_width=100,
    top_paths=1,
    merge_repeated=True,
    mask_index=0,
):
    inputs = convert_to_tensor(inputs)
    batch, steps, classes = tf.shape(inputs)[0], tf.shape(inputs)[1], tf.shape(inputs)[2]
    dtype = result_type(standardize_dtype(inputs.dtype), "float32")
    time_major = tf.cast(tf.transpose(inputs, [1, 0, 2]), dtype)
    lengths = tf.cast(convert_to_tensor(sequence_lengths), "int32")
    if strategy == "greedy":
        decoded, scores = tf.nn.ctc_greedy_decoder(
            time_major, lengths, merge_repeated=merge_repeated, blank_index=mask_index
        )
    elif strategy == "beam_search":
        if mask_index is not None:
            # TF's beam search wants the blank last: move it there, then map labels back.
            m = mask_index % inputs.shape[-1] if inputs.shape[-1] else mask_index
            time_major = tf.concat(
                [time_major[..., :m], time_major[..., m + 1 :], time_major[..., m : m + 1]], -1
            )
        decoded, scores = tf.nn.ctc_beam_search_decoder(
            time_major, lengths, beam_width=beam_width, top_paths=top_paths
        )
    else:
        raise ValueError(
            f"ctc_decode got strategy={strategy!r}. Expected 'greedy' or 'beam_search'."
        )
    dense = []
    for sp in decoded:
        sp = tf.SparseTensor(sp.indices, sp.values, tf.cast(tf.stack([batch, steps]), "int64"))
        dense.append(tf.sparse.to_dense(sp, default_value=-1))
    dense = tf.cast(tf.stack(dense), "int32")
    if strategy == "beam_search" and mask_index is not None:
        dense = tf.where(dense >= m, dense + 1, dense)
    del classes
    return dense, scores


def psnr(x1, x2, max_val):
    x1, x2 = convert_to_tensor(x1), convert_to_tensor(x2)
    if x1.shape.as_list() != x2.shape.as_list():
        raise ValueError(
            f"psnr needs inputs of the same shape. Received {x1.shape.as_list()} and "
            f"{x2.shape.as_list()}."
        )
    dtype = result_type(standardize_dtype(x1.dtype), standardize_dtype(x2.dtype), float)
    x1, x2 = tf.cast(x1, dtype), tf.cast(x2, dtype)
    max_val = tf.cast(max_val, dtype)
    mse = tf.reduce_mean(tf.square(x1 - x2))
    ln10 = tf.constant(math.log(10.0), dtype)
    return 20.0 * tf.math.log(max_val) / ln10 - 10.0 * tf.math.log(mse) / ln10
