// expect: unsafe
// why: with x <= 0 every one of the 15 inner iterations adds 2: s = 30
extern int __VERIFIER_nondet_int(void);
int main() {
  int i, j, s = 0, x;
  x = __VERIFIER_nondet_int();
  for (i = 0; i < 3; i++) {
    for (j = 0; j < 5; j++) { if (x > j) { s = s + 1; } else { s = s + 2; } }
  }
  if (s < 15 || s > 29) { ERROR: ; }
  return 0;
}
