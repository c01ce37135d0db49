// expect: unsafe
// why: the check passes b[k + 1], a cell the fill did not write when k + 1 = count < 5000: count = 1, b[0] = 0 and an odd b[1], in bounds
// expect-bounds-nondet: unsafe
// expect-bounds-error: unsafe
extern int __VERIFIER_nondet_int(void);
void is_even(int v) {
  if (v % 2 != 0) {
  ERROR: ;
  }
}
int main() {
  int b[5000];
  int k;
  int count = __VERIFIER_nondet_int();
  for (k = 0; k < count; k++) {
    b[k] = __VERIFIER_nondet_int();
  }
  for (k = 0; k < count; k++) {
    if (b[k] % 2 == 0) {
      is_even(b[k + 1]);
    }
  }
  return 0;
}
