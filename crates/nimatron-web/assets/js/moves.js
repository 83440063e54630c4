// Heap names as people read them on the board: A, B, …, Z, AA, AB, …, the
// letters the server's move texts use.

export const heapName = (i) => {
  let n = i + 1, s = '';
  while (n > 0) { const r = (n - 1) % 26; s = String.fromCharCode(65 + r) + s; n = Math.floor((n - 1) / 26); }
  return s;
};
