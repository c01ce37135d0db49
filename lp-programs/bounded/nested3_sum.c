// expect: safe
// why: three nested loops, 2 * 3 * 4 = 24 innermost iterations, each adding 1 or 2 by the input
// bmc-assumes: none
extern int __VERIFIER_nondet_int(void);
int main() {
  int i, j, k, s = 0, x;
  x = __VERIFIER_nondet_int();
  for (i = 0; i < 2; i++) {
    for (j = 0; j < 3; j++) {
      for (k = 0; k < 4; k++) {
        if (x > j + k) { s = s + 1; } else { s = s + 2; }
      }
    }
  }
  if (s < 24 || s > 48) { ERROR: ; }
  return 0;
}
