// expect: safe
// why: the error needs x = INT_MAX + 1, a signed overflow that C leaves undefined: no defined execution reaches it
// expect-wrap: unsafe
// expect-error: overflow
// assumes: 11
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x < 2147483647) return 0;
  x = x + 1;
  if (x < 0) reach_error();
  return 0;
}
