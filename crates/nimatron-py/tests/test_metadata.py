"""The installed wheel's metadata (what PyPI shows) and its extension
module: README, classifiers and licence (its texts inside), no placeholder
URLs, and no debug info."""

import importlib.metadata
import pathlib
import struct
import sys
from typing import List

import pytest

import nimatron


def test_the_wheel_has_full_metadata():
    meta = importlib.metadata.metadata("nimatron")
    assert meta["Name"] == "nimatron" and meta["Version"] == nimatron.__version__
    assert meta["Summary"] and meta["Requires-Python"] == ">=3.9"
    assert (meta["Description-Content-Type"] or "").startswith("text/markdown")
    description = meta.get_payload()  # type: ignore[attr-defined]
    assert "# Nimatron for Python" in description and "nimatron.analyze" in description
    # Nimatron has no public address yet: no URL rather than a placeholder.
    for url in meta.get_all("Project-URL") or []:
        assert ".invalid" not in url and "example." not in url, url
    classifiers = meta.get_all("Classifier") or []
    for wanted in [
        "Operating System :: POSIX :: Linux",
        "Operating System :: MacOS",
        "Operating System :: Microsoft :: Windows",
        "Programming Language :: Python :: 3.9",
        "Typing :: Typed",
    ]:
        assert wanted in classifiers, wanted
    # PEP 639: the licence as an SPDX expression (license classifiers are
    # superseded by it), and both texts in the wheel.
    assert meta["License-Expression"] == "MIT OR Apache-2.0"
    assert not [c for c in classifiers if c.startswith("License ::")], classifiers
    assert sorted(meta.get_all("License-File") or []) == ["LICENSE-APACHE", "LICENSE-MIT"]


def test_the_wheel_holds_the_licence_texts():
    files = {f.name: f for f in importlib.metadata.files("nimatron") or [] if "licenses" in f.parts}
    assert sorted(files) == ["LICENSE-APACHE", "LICENSE-MIT"], sorted(files)
    assert "Permission is hereby granted, free of charge" in files["LICENSE-MIT"].read_text()
    assert "Apache License" in files["LICENSE-APACHE"].read_text() and "Version 2.0" in files["LICENSE-APACHE"].read_text()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the ELF sections")
def test_the_extension_module_is_stripped():
    module = pathlib.Path(nimatron._nimatron.__file__)  # type: ignore[attr-defined]
    data = module.read_bytes()
    sections = elf_section_names(data)
    # (The bytes ".debug_info" are in any Rust library: std's backtrace
    # reader looks for that section. The section itself must be gone.)
    assert ".text" in sections, sections
    assert not [s for s in sections if s.startswith(".debug")], sections
    # A few MB, not the 26 MB of an unstripped build.
    assert len(data) < 12 * 2**20, len(data)


def elf_section_names(data: bytes) -> List[str]:
    """The section names of a 64-bit little-endian ELF file."""
    assert data[:4] == b"\x7fELF" and data[4] == 2 and data[5] == 1, "not a 64-bit little-endian ELF file"
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)

    def header(i: int) -> "tuple[int, int]":
        name, _type, _flags, _addr, offset = struct.unpack_from("<IIQQQ", data, shoff + i * shentsize)
        return name, offset

    _, strings = header(shstrndx)
    names = []
    for i in range(shnum):
        name, _ = header(i)
        end = data.index(b"\0", strings + name)
        names.append(data[strings + name : end].decode())
    return names
