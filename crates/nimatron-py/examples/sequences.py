"""Grundy sequences at research scale, with a progress callback.

Run: python examples/sequences.py
"""

from typing import Union

import numpy as np
import numpy.typing as npt

import nimatron


def report(done: int, total: int) -> None:
    print(f"\r{done}/{total}", end="", flush=True)


def main() -> None:
    seq = nimatron.grundy_sequence("officers", 10**6, threads=2, progress=report)
    print()
    values: npt.NDArray[Union[np.uint16, np.uint32]] = seq.values
    print(seq, values.dtype, int(values.max()))
    kayles = nimatron.grundy_sequence("kayles", 10**5)
    assert kayles.proven and kayles.period == 12
    print(f"Kayles: period {kayles.period}, preperiod {kayles.preperiod}, proven")
    for cls in nimatron.census(1, 500):
        print(cls["number"], cls["codes"], cls["rule"], cls["period"])


if __name__ == "__main__":
    main()
