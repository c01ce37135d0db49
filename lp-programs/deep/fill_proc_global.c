// expect: safe
// why: fill writes 3 into every cell of the global array
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a[100000];
void fill(int v) {
  for (int i = 0; i < 100000; i++) {
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
