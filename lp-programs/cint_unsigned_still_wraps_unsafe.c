// expect: unsafe
// why: UINT_MAX + 1 wraps to 0 under every setting (unsigned overflow is defined), so u == 0 holds
// expect-wrap: unsafe
// expect-error: unsafe
void reach_error() {}
extern unsigned int __VERIFIER_nondet_uint(void);
int main() {
  unsigned u = __VERIFIER_nondet_uint();
  if (u < 4294967295u) return 0;
  u = u + 1;
  if (u == 0) reach_error();
  return 0;
}
