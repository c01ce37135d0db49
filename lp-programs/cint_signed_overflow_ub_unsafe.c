// expect: unsafe
// why: x = INT_MAX - 1 reaches the error without overflow (x + 1 is INT_MAX), under every setting
// expect-wrap: unsafe
// expect-error: unsafe
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x < 2147483646) return 0;
  x = x + 1;
  if (x == 2147483647) reach_error();
  return 0;
}
