// expect: unsafe
// why: (unsigned)INT_MAX + 1u is 2147483648u, which converts back to int as INT_MIN
// (implementation-defined; gcc wraps), a negative value
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x < 2147483647) return 0;
  x = (int)((unsigned)x + 1u);
  if (x < 0) reach_error();
  return 0;
}
