// expect: safe
// why: four rounds of relaxation over the fixed edges 0-1 (1), 1-2 (1), 2-3 (5), 1-3 (3) leave d = {0, 1, 2, 4}
int main() {
  int src[4] = {0, 1, 2, 1};
  int dst[4] = {1, 2, 3, 3};
  int w[4] = {1, 1, 5, 3};
  int d[4];
  int i, j;
  for (i = 0; i < 4; i++) {
    if (i == 0) {
      d[i] = 0;
    } else {
      d[i] = 1000;
    }
  }
  for (i = 0; i < 4; i++) {
    for (j = 0; j < 4; j++) {
      if (d[dst[j]] > d[src[j]] + w[j]) {
        d[dst[j]] = d[src[j]] + w[j];
      }
    }
  }
  assert(d[3] == 4);
  assert(d[2] == 2);
  return 0;
}
