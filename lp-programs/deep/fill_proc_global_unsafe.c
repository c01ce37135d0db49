// expect: unsafe
// why: fill stops one cell short, so the global a[99999] keeps its initial 0: j = 99999
// with a[99999] != 3
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
void fill(int v) {
  for (int i = 0; i < 99999; i++) {
    a[i] = v;
  }
}
int main() {
  fill(3);
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j >= 100000) return 0;
  if (a[j] != 3) {
    reach_error();
  }
  return 0;
}
