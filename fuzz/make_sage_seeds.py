#!/usr/bin/env python3
"""Seeds for the Sage data fuzz targets (sage_weights, sage_bearoff): small
files made here, not Sage's own data (a network of Sage's is 400 KB, its
bear-off database 4.9 MB).

    python3 fuzz/make_sage_seeds.py   (from anywhere; deterministic)

sage_weights: a shape byte (bits 0-1: hidden units - 1; bit 2: the 244
contact inputs, else the pure race's 196), then a network file as
neural_net.cpp's save_weights writes it (hidden, inputs, outputs as int32,
then the hidden layer's and the output layer's floats): whole, cut short,
with a NaN, with another version's header.

sage_bearoff: a mode byte; even: the file itself (a header as bearoff.cpp's
save writes it, then a little of the body: cut short); odd: edits to the
fuzz target's whole sample database (4-byte offset, length byte, bytes; a
length of 255 cuts the file there): none, a gammon index past the
distributions, a NaN mean, the issue's count of 50 million, a cut.
"""
import hashlib
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
POSITIONS = 54264
MEANS = 28 + POSITIONS * 64
INDEXES = MEANS + POSITIONS * 4


def write(target, seeds):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    for seed in seeds:
        name = hashlib.sha1(seed).hexdigest()
        with open(os.path.join(folder, name), "wb") as f:
            f.write(seed)


def network(hidden, inputs, rng):
    floats = hidden * (inputs + 1) + 5 * (hidden + 1)
    body = b"".join(struct.pack("<f", rng.uniform(-2, 2)) for _ in range(floats))
    return struct.pack("<3i", hidden, inputs, 5) + body


def weights_seeds():
    rng = random.Random(40)
    seeds = []
    for shape in [0, 1, 3, 4, 5]:
        hidden, inputs = (shape & 3) + 1, 244 if shape & 4 else 196
        net = network(hidden, inputs, rng)
        seeds.append(bytes([shape]) + net)
        seeds.append(bytes([shape]) + net[: len(net) // 2])
    nan = bytearray(network(2, 196, rng))
    nan[12 + 4 * 400: 12 + 4 * 401] = struct.pack("<f", float("nan"))
    seeds.append(bytes([1]) + bytes(nan))
    seeds.append(bytes([1]) + struct.pack("<3i", 128, 196, 5) + bytes(64))
    return seeds


def edit(at, data):
    return struct.pack("<IB", at, len(data)) + data


def bearoff_seeds():
    header = struct.pack("<7I", 0x42454152, 1, 6, 15, 32, POSITIONS, 15504)
    return [
        bytes([0]) + header + bytes(2048),
        bytes([0]) + header[:20],
        bytes([0]) + struct.pack("<7I", 0x42454152, 2, 6, 15, 32, POSITIONS, 15504),
        bytes([1]),
        bytes([1]) + edit(INDEXES + 4 * 20, struct.pack("<i", 100_000_020)),
        bytes([1]) + edit(MEANS + 4 * 9, struct.pack("<f", float("nan"))),
        bytes([1]) + edit(24, struct.pack("<I", 50_000_000)) + struct.pack("<IB", INDEXES + POSITIONS * 4, 255),
        bytes([1]) + edit(28 + 64 * 5, struct.pack("<H", 1)),
    ]


write("sage_weights", weights_seeds())
write("sage_bearoff", bearoff_seeds())
