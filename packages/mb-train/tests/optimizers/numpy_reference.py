"""NumPy (float64) implementations of every optimizer's update, written from the formulas.

`run` drives a rule over several steps with the shared features (loss scale,
gradient accumulation, clipping, weight decay, EMA), in Keras 3's order.
"""

import numpy as np

# ----- per-variable rules: rule(p, g, state, t, lr, **hyper) -> new p -----------------


def sgd(p, g, s, t, lr, momentum=0.0, nesterov=False):
    if momentum == 0:
        return p - lr * g
    m = momentum * s.get("m", np.zeros_like(p)) - lr * g
    s["m"] = m
    return p + (momentum * m - lr * g if nesterov else m)


def adam(p, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False):
    m = beta_1 * s.get("m", np.zeros_like(p)) + (1 - beta_1) * g
    v = beta_2 * s.get("v", np.zeros_like(p)) + (1 - beta_2) * g * g
    s["m"], s["v"] = m, v
    if amsgrad:
        v = s["v_hat"] = np.maximum(s.get("v_hat", np.zeros_like(p)), v)
    alpha = lr * np.sqrt(1 - beta_2**t) / (1 - beta_1**t)
    return p - alpha * m / (np.sqrt(v) + epsilon)


def rmsprop(p, g, s, t, lr, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False):
    v = rho * s.get("v", np.zeros_like(p)) + (1 - rho) * g * g
    s["v"] = v
    if centered:
        a = rho * s.get("a", np.zeros_like(p)) + (1 - rho) * g
        s["a"] = a
        step = lr * g / np.sqrt(v - a * a + epsilon)
    else:
        step = lr * g / np.sqrt(v + epsilon)
    if momentum > 0:
        step = s["mom"] = momentum * s.get("mom", np.zeros_like(p)) + step
    return p - step


def adadelta(p, g, s, t, lr, rho=0.95, epsilon=1e-7):
    eg = rho * s.get("eg", np.zeros_like(p)) + (1 - rho) * g * g
    ed = s.get("ed", np.zeros_like(p))
    delta = -np.sqrt(ed + epsilon) / np.sqrt(eg + epsilon) * g
    s["eg"], s["ed"] = eg, rho * ed + (1 - rho) * delta * delta
    return p + lr * delta


def adagrad(p, g, s, t, lr, initial_accumulator_value=0.1, epsilon=1e-7):
    acc = s.get("acc", np.full_like(p, initial_accumulator_value)) + g * g
    s["acc"] = acc
    return p - lr * g / np.sqrt(acc + epsilon)


def adamax(p, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    m = beta_1 * s.get("m", np.zeros_like(p)) + (1 - beta_1) * g
    u = np.maximum(beta_2 * s.get("u", np.zeros_like(p)), np.abs(g))
    s["m"], s["u"] = m, u
    return p - lr / (1 - beta_1**t) * m / (u + epsilon)


def nadam(p, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    def mu(i):
        return beta_1 * (1 - 0.5 * 0.96**i)

    product = np.prod([mu(i) for i in range(1, t + 1)])
    m = beta_1 * s.get("m", np.zeros_like(p)) + (1 - beta_1) * g
    v = beta_2 * s.get("v", np.zeros_like(p)) + (1 - beta_2) * g * g
    s["m"], s["v"] = m, v
    m_hat = mu(t + 1) * m / (1 - product * mu(t + 1)) + (1 - mu(t)) * g / (1 - product)
    v_hat = v / (1 - beta_2**t)
    return p - lr * m_hat / (np.sqrt(v_hat) + epsilon)


def lamb(p, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
    m = beta_1 * s.get("m", np.zeros_like(p)) + (1 - beta_1) * g
    v = beta_2 * s.get("v", np.zeros_like(p)) + (1 - beta_2) * g * g
    s["m"], s["v"] = m, v
    update = (m / (1 - beta_1**t)) / (np.sqrt(v / (1 - beta_2**t)) + epsilon)
    w_norm, u_norm = np.linalg.norm(p), np.linalg.norm(update)
    ratio = w_norm / u_norm if w_norm > 0 and u_norm > 0 else 1.0
    return p - lr * ratio * update


def lion(p, g, s, t, lr, beta_1=0.9, beta_2=0.99):
    m = s.get("m", np.zeros_like(p))
    s["m"] = beta_2 * m + (1 - beta_2) * g
    return p - lr * np.sign(beta_1 * m + (1 - beta_1) * g)


def ftrl(
    p,
    g,
    s,
    t,
    lr,
    learning_rate_power=-0.5,
    initial_accumulator_value=0.1,
    l1_regularization_strength=0.0,
    l2_regularization_strength=0.0,
    l2_shrinkage_regularization_strength=0.0,
    beta=0.0,
):
    n = s.get("n", np.full_like(p, initial_accumulator_value))
    z = s.get("z", np.zeros_like(p))
    g_shrunk = g + 2 * l2_shrinkage_regularization_strength * p
    n_new = n + g * g
    sigma = (n_new ** (-learning_rate_power) - n ** (-learning_rate_power)) / lr
    z = z + g_shrunk - sigma * p
    l1 = l1_regularization_strength
    l2 = l2_regularization_strength + beta / (2 * lr)
    quadratic = n_new ** (-learning_rate_power) / lr + 2 * l2
    s["n"], s["z"] = n_new, z
    return (np.clip(z, -l1, l1) - z) / quadratic


def adafactor(
    p,
    g,
    s,
    t,
    lr,
    beta_2_decay=-0.8,
    epsilon_1=1e-30,
    epsilon_2=1e-3,
    clip_threshold=1.0,
    relative_step=True,
):
    def rms(x):
        return np.sqrt(np.mean(x * x))

    rho = min(lr, 1 / np.sqrt(t))
    alpha = max(epsilon_2, rms(p)) * rho
    g2 = g * g + epsilon_1
    beta = 1 - t**beta_2_decay
    if p.ndim >= 2:
        r = beta * s.get("r", np.zeros(p.shape[:-1])) + (1 - beta) * g2.mean(axis=-1)
        c = beta * s.get("c", np.zeros(p.shape[:-2] + p.shape[-1:])) + (1 - beta) * g2.mean(-2)
        s["r"], s["c"] = r, c
        v = (r / r.mean(axis=-1, keepdims=True))[..., None] * c[..., None, :]
    else:
        v = s["v"] = beta * s.get("v", np.zeros_like(p)) + (1 - beta) * g2
    u = g / np.sqrt(v)
    u = u / max(1.0, rms(u) / clip_threshold)
    return p - alpha * u


def _orthogonalize(x, steps, a, b, c):
    tall = x.shape[0] > x.shape[1]
    x = x.T if tall else x
    x = x / (np.linalg.norm(x) + 1e-7)
    for _ in range(steps):
        gram = x @ x.T
        x = a * x + (b * gram + c * gram @ gram) @ x
    return x.T if tall else x


def muon(
    p,
    g,
    s,
    t,
    lr,
    adam_beta_1=0.9,
    adam_beta_2=0.999,
    epsilon=1e-7,
    momentum=0.95,
    ns_steps=5,
    nesterov=True,
    rms_rate=0.2,
    muon_a=3.4445,
    muon_b=-4.7750,
    muon_c=2.0315,
    adam_lr_ratio=1.0,
):
    if p.ndim != 2:
        return adam(p, g, s, t, lr * adam_lr_ratio, adam_beta_1, adam_beta_2, epsilon)
    m = s["m"] = momentum * s.get("m", np.zeros_like(p)) + g
    direction = g + momentum * m if nesterov else m
    update = lr * _orthogonalize(direction, ns_steps, muon_a, muon_b, muon_c)
    if rms_rate is not None:
        update = update * np.sqrt(max(p.shape)) * rms_rate
    return p - update


def schedule_free_adamw(p, g, s, t, lr, beta_1=0.9, beta_2=0.999, epsilon=1e-8, warmup_steps=0):
    z = s.get("z", p.copy())
    v = beta_2 * s.get("v", np.zeros_like(p)) + (1 - beta_2) * g * g
    if warmup_steps > 0:
        lr = lr * min(t / warmup_steps, 1.0)
    z_new = z - lr * g / (np.sqrt(v / (1 - beta_2**t)) + epsilon)
    x = (p - (1 - beta_1) * z) / beta_1
    x = (1 - 1 / t) * x + (1 / t) * z_new
    s["z"], s["v"] = z_new, v
    return (1 - beta_1) * z_new + beta_1 * x


# ----- the shared pipeline -------------------------------------------------------------


def _clip(grads, clipnorm, clipvalue, global_clipnorm):
    if clipnorm:
        return [g * clipnorm / max(np.linalg.norm(g), clipnorm) for g in grads]
    if global_clipnorm:
        norm = np.sqrt(sum(np.sum(g * g) for g in grads))
        return [g * global_clipnorm / max(norm, global_clipnorm) for g in grads]
    if clipvalue:
        return [np.clip(g, -clipvalue, clipvalue) for g in grads]
    return grads


def run(
    rule,
    params,
    grad_steps,
    learning_rate=0.01,
    schedule=None,
    weight_decay=None,
    decay_mask=None,
    clipnorm=None,
    clipvalue=None,
    global_clipnorm=None,
    use_ema=False,
    ema_momentum=0.99,
    ema_overwrite_frequency=None,
    gradient_accumulation_steps=None,
    loss_scale_factor=None,
    **hyper,
):
    """Applies `rule` over `grad_steps` (a list of per-variable gradient lists).

    Returns ``(params, averages)``; `schedule(step)` gives the rate at a step.
    """
    params = [np.asarray(p, np.float64).copy() for p in params]
    states = [{} for _ in params]
    averages = [np.zeros_like(p) for p in params]
    accumulators = [np.zeros_like(p) for p in params]
    decay_mask = decay_mask or [True] * len(params)
    n = gradient_accumulation_steps
    for step, grads in enumerate(grad_steps):
        grads = [np.asarray(g, np.float64) for g in grads]
        if loss_scale_factor:
            grads = [g / loss_scale_factor for g in grads]
        lr = schedule(step) if schedule is not None else learning_rate
        real_step = step // n if n else step
        update = True
        if n:
            update = (step + 1) % n == 0
            summed = [g + a for g, a in zip(grads, accumulators, strict=True)]
            accumulators = [np.zeros_like(s) if update else s for s in summed]
            grads = [s / n for s in summed]
        if update:
            grads = _clip(grads, clipnorm, clipvalue, global_clipnorm)
            for i, (p, g) in enumerate(zip(params, grads, strict=True)):
                if weight_decay and decay_mask[i]:
                    p = p - p * weight_decay * lr
                params[i] = rule(p, g, states[i], real_step + 1, lr, **hyper)
        if use_ema:
            momentum = ema_momentum if real_step != 0 else 0.0
            pairs = zip(averages, params, strict=True)
            averages = [momentum * a + (1 - momentum) * p for a, p in pairs]
            if ema_overwrite_frequency and (real_step + 1) % ema_overwrite_frequency == 0:
                params = [a.copy() for a in averages]
    return params, averages
