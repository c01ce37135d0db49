// expect: unsafe
// why: as const_local_vla.c, but the odd cells are written only up to 2*N-1: the last
// cell 2*N+1 keeps its arbitrary initial value
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int main() {
  int N = 100;
  int a[2 * N + 2];
  for (int i = 0; i <= N; i++) {
    a[2 * i] = 0;
    if (i < N) a[2 * i + 1] = 0;
  }
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j > 2 * N + 1) return 0;
  __VERIFIER_assert(a[j] == 0);
  return 0;
}
