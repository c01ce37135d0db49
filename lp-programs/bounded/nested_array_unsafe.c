// expect: unsafe
// why: as nested_array.c, but the check says the total stays below 12, which an input of 1 (values 1, 2, 0, 1 and so on) exceeds
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[4];
  int i, j, s = 0, x;
  x = __VERIFIER_nondet_int();
  if (x < -20 || x > 20) return 0;
  for (i = 0; i < 3; i++) {
    for (j = 0; j < 4; j++) {
      int r = (x + i + j) % 3;
      if (r < 0) { a[j] = -r; } else { a[j] = r; }
    }
    for (j = 0; j < 4; j++) {
      s = s + a[j];
    }
  }
  if (s < 0 || s > 11) { ERROR: ; }
  return 0;
}
