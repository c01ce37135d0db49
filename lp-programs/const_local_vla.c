// expect: safe
// why: N is declared with a constant and never assigned, so a[2*N+2] has the constant
// size 200002 (constant propagation), and every cell written is 0
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int main() {
  int N = 100000;
  int a[2 * N + 2];
  for (int i = 0; i <= N; i++) {
    a[2 * i] = 0;
    a[2 * i + 1] = 0;
  }
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j > 2 * N + 1) return 0;
  __VERIFIER_assert(a[j] == 0);
  return 0;
}
