// expect: safe
// why: unsigned arithmetic wraps modulo 2^32 under every setting: UINT_MAX + 1 is 0
// expect-wrap: safe
// expect-error: safe
// assumes: none
void reach_error() {}
extern unsigned int __VERIFIER_nondet_uint(void);
int main() {
  unsigned u = __VERIFIER_nondet_uint();
  if (u < 4294967295u) return 0;
  u = u + 1;
  if (u != 0) reach_error();
  return 0;
}
