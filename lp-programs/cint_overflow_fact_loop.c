// expect: safe
// why: s grows from 0 by positive steps, so it stays >= 0 unless s + k overflows, which C leaves undefined
// expect-wrap: unsafe
// expect-error: overflow
// assumes: 14
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int s = 0;
  while (__VERIFIER_nondet_int()) {
    int k = __VERIFIER_nondet_int();
    if (k <= 0)
      continue;
    s = s + k;
  }
  if (s < 0) reach_error();
  return 0;
}
