// expect: unsafe
// why: x = 7 gives y == 14; the glibc assert in main is an if around __assert_fail
extern void __assert_fail (const char *__assertion, const char *__file,
      unsigned int __line, const char *__function)
     __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { ((void) sizeof ((0) ? 1 : 0), __extension__ ({ if (0) ; else __assert_fail ("0", "glibc_reach_error_wrong.c", 3, __extension__ __PRETTY_FUNCTION__); })); }
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int(), y = 0;
  if (!(x >= 0 && x <= 10)) return 0;
  for (int i = 0; i < x; i++) y += 2;
  ((void) sizeof ((y != 14) ? 1 : 0), __extension__ ({ if (y != 14) ; else __assert_fail ("y != 14", "glibc_reach_error_wrong.c", 12, __extension__ __PRETTY_FUNCTION__); }));
  return 0;
}
