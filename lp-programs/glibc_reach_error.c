// expect: safe
// why: reach_error's body (the glibc assert expansion) is irrelevant; x stays in 0..10 so y == 2x
extern void __assert_fail (const char *__assertion, const char *__file,
      unsigned int __line, const char *__function)
     __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { ((void) sizeof ((0) ? 1 : 0), __extension__ ({ if (0) ; else __assert_fail ("0", "glibc_reach_error.c", 3, __extension__ __PRETTY_FUNCTION__); })); }
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();abort();} } }
int main() {
  int x = __VERIFIER_nondet_int(), y = 0;
  if (!(x >= 0 && x <= 10)) return 0;
  for (int i = 0; i < x; i++) y += 2;
  __VERIFIER_assert(y == 2 * x);
  return 0;
}
