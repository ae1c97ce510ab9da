#!/usr/bin/env python3
"""A HEIC laid out as a phone camera writes one: the picture as a grid of 512×512 HEVC tiles (an iPhone's 12-megapixel
photo is 8×6 tiles of 4032×3024), the rotation as an `irot` property, Exif with the orientation. libvips' own
`heifsave` (libheif 1.15) writes one HEVC image of the whole picture instead, which libheif decodes on one thread,
while a grid's tiles are decoded on up to four (libheif's default): the media benchmark (scripts/bench-media.sh)
times both.

    scripts/make-grid-heic.py INPUT OUTPUT [--quality 50] [--tile 512] [--rotation 270] [--exif FILE]

INPUT is any picture vips reads. Each tile is cut and encoded by libvips (`vips crop` to a one-image HEIC through
libheif and x265), its HEVC configuration (`hvcC`) and coded data are taken out of that file and put into one file
with a `grid` item (ISO/IEC 23008-12, 6.6.2.3) naming the tiles in order. Tiles past the picture's right and bottom
edges are filled by repeating the edge (the grid's output size crops them away, as a camera's do).
"""
import argparse
import os
import struct
import subprocess
import sys
import tempfile


def boxes(data, start=0, end=None):
    """(type, payload start, box end) of each box in data[start:end]."""
    end = len(data) if end is None else end
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[at + 8:at + 16])[0]
            header = 16
        elif size == 0:
            size = end - at
        yield kind.decode("latin-1"), at + header, at + size
        at += size


def child(data, start, end, kind):
    for k, s, e in boxes(data, start, end):
        if k == kind:
            return s, e
    raise ValueError(f"no {kind} box")


def read_uint(data, at, size):
    return int.from_bytes(data[at:at + size], "big") if size else 0


def single_image(path):
    """The hvcC box (whole) and the coded data of the primary item of a one-image HEIC written by libheif."""
    data = open(path, "rb").read()
    meta_s, meta_e = child(data, 0, len(data), "meta")
    meta_s += 4  # full box
    primary = struct.unpack(">H", data[child(data, meta_s, meta_e, "pitm")[0] + 4:][:2])[0]
    iprp_s, iprp_e = child(data, meta_s, meta_e, "iprp")
    ipco_s, ipco_e = child(data, iprp_s, iprp_e, "ipco")
    hvcc = next(data[s - 8:e] for k, s, e in boxes(data, ipco_s, ipco_e) if k == "hvcC")
    iloc_s, iloc_e = child(data, meta_s, meta_e, "iloc")
    version = data[iloc_s]
    at = iloc_s + 4
    offset_size, length_size = data[at] >> 4, data[at] & 15
    base_size, index_size = data[at + 1] >> 4, (data[at + 1] & 15 if version in (1, 2) else 0)
    at += 2
    count_size = 4 if version == 2 else 2
    count = read_uint(data, at, count_size)
    at += count_size
    for _ in range(count):
        item = read_uint(data, at, 4 if version == 2 else 2)
        at += 4 if version == 2 else 2
        if version in (1, 2):
            at += 2  # construction method: 0 (file offsets) from libheif
        at += 2  # data reference index
        base = read_uint(data, at, base_size)
        at += base_size
        extents = read_uint(data, at, 2)
        at += 2
        chunks = []
        for _ in range(extents):
            at += index_size
            offset = read_uint(data, at, offset_size)
            at += offset_size
            length = read_uint(data, at, length_size)
            at += length_size
            chunks.append(data[base + offset:base + offset + length])
        if item == primary:
            return hvcc, b"".join(chunks)
    raise ValueError("the primary item has no location")


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind.encode()) + payload


def full_box(kind, version, flags, payload):
    return box(kind, struct.pack(">I", (version << 24) | flags) + payload)


def infe(item_id, item_type, hidden=False, name=b""):
    return full_box("infe", 2, 1 if hidden else 0, struct.pack(">HH4s", item_id, 0, item_type.encode()) + name + b"\0")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--quality", type=int, default=50)
    parser.add_argument("--tile", type=int, default=512)
    parser.add_argument("--rotation", type=int, default=270, choices=(0, 90, 180, 270),
                        help="irot: degrees anticlockwise applied on display (270: a phone held upright)")
    parser.add_argument("--exif", help="a file of Exif (TIFF) bytes for the Exif item; none by default")
    args = parser.parse_args()

    header = subprocess.run(["vipsheader", args.input], capture_output=True, text=True, check=True).stdout
    width, height = (int(v) for v in header.split(": ", 1)[1].split(" ", 1)[0].split("x"))
    tile = args.tile
    columns, rows = -(-width // tile), -(-height // tile)

    with tempfile.TemporaryDirectory() as folder:
        padded = os.path.join(folder, "padded.v")
        # Repeat the edges out to whole tiles.
        subprocess.run(["vips", "embed", args.input, padded, "0", "0", str(columns * tile), str(rows * tile),
                        "--extend", "copy"], check=True)
        tiles = []
        for row in range(rows):
            for column in range(columns):
                path = os.path.join(folder, f"tile-{row}-{column}.heic")
                subprocess.run(["vips", "crop", padded, f"{path}[Q={args.quality},strip]",
                                str(column * tile), str(row * tile), str(tile), str(tile)], check=True)
                tiles.append(single_image(path))
                print(f"\r  tile {len(tiles)}/{rows * columns}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)

    # Items: 1..n the tiles (hidden), n+1 the grid (primary), n+2 the Exif.
    n = len(tiles)
    grid_id, exif_id = n + 1, n + 2
    exif = None
    if args.exif:
        exif = struct.pack(">I", 0) + open(args.exif, "rb").read()

    # Properties (1-based): distinct hvcC boxes, the tile ispe, the grid ispe, irot.
    hvccs = []
    for hvcc, _ in tiles:
        if hvcc not in hvccs:
            hvccs.append(hvcc)
    properties = list(hvccs)
    tile_ispe = len(properties) + 1
    properties.append(full_box("ispe", 0, 0, struct.pack(">II", tile, tile)))
    grid_ispe = len(properties) + 1
    properties.append(full_box("ispe", 0, 0, struct.pack(">II", width, height)))
    irot = None
    if args.rotation:
        irot = len(properties) + 1
        properties.append(box("irot", bytes([args.rotation // 90])))
    ipco = box("ipco", b"".join(properties))

    associations = []
    for index, (hvcc, _) in enumerate(tiles):
        associations.append((index + 1, [(hvccs.index(hvcc) + 1, True), (tile_ispe, False)]))
    grid_props = [(grid_ispe, False)] + ([(irot, True)] if irot else [])
    associations.append((grid_id, grid_props))
    ipma = full_box("ipma", 0, 0, struct.pack(">I", len(associations)) + b"".join(
        struct.pack(">HB", item, len(props)) + bytes((0x80 if essential else 0) | p for p, essential in props)
        for item, props in associations))
    iprp = box("iprp", ipco + ipma)

    grid_data = struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)
    infos = [infe(i + 1, "hvc1", hidden=True) for i in range(n)] + [infe(grid_id, "grid")]
    if exif:
        infos.append(infe(exif_id, "Exif"))
    iinf = full_box("iinf", 0, 0, struct.pack(">H", len(infos)) + b"".join(infos))
    dimg = box("dimg", struct.pack(">HH", grid_id, n) + b"".join(struct.pack(">H", i + 1) for i in range(n)))
    refs = dimg + (box("cdsc", struct.pack(">HHH", exif_id, 1, grid_id)) if exif else b"")
    iref = full_box("iref", 0, 0, refs)
    hdlr = full_box("hdlr", 0, 0, struct.pack(">I4s", 0, b"pict") + b"\0" * 12 + b"\0")
    pitm = full_box("pitm", 0, 0, struct.pack(">H", grid_id))

    # Item data in mdat: tiles, grid description, Exif. iloc version 1, 4-byte offsets and lengths; the grid's data
    # is in idat in real files and in mdat here (construction method 0), which libheif reads alike.
    payloads = [data for _, data in tiles] + [grid_data] + ([exif] if exif else [])
    ids = list(range(1, n + 1)) + [grid_id] + ([exif_id] if exif else [])

    def iloc_box(mdat_start):
        body = struct.pack(">BBH", 0x44, 0x00, len(payloads))
        at = mdat_start
        for item, payload in zip(ids, payloads):
            body += struct.pack(">HHHHII", item, 0, 0, 1, at, len(payload))
            at += len(payload)
        return full_box("iloc", 1, 0, body)

    ftyp = box("ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heicmiaf")

    def meta_box(mdat_start):
        return full_box("meta", 0, 0, hdlr + pitm + iloc_box(mdat_start) + iinf + iref + iprp)

    # iloc's size does not depend on the offsets: lay out once to learn where mdat's payload starts.
    head = len(ftyp) + len(meta_box(0)) + 8
    mdat = box("mdat", b"".join(payloads))
    with open(args.output, "wb") as out:
        out.write(ftyp + meta_box(head) + mdat)
    print(f"{args.output}: {width}x{height}, {rows}x{columns} tiles of {tile}, {os.path.getsize(args.output)} bytes",
          file=sys.stderr)


if __name__ == "__main__":
    main()
