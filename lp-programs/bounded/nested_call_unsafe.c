// expect: unsafe
// why: with x >= 5 each call adds 5: s = 15
extern int __VERIFIER_nondet_int(void);
int add(int s, int x) {
  int j;
  for (j = 0; j < 5; j++) { if (x > j) { s = s + 1; } else { s = s + 2; } }
  return s;
}
int main() {
  int i, s = 0, x;
  x = __VERIFIER_nondet_int();
  for (i = 0; i < 3; i++) { s = add(s, x); }
  if (s < 16 || s > 30) { ERROR: ; }
  return 0;
}
