// expect: safe
// why: fill_label.c with a global array of 100000 cells: every cell is set to 42 before the check
int a[100000];
int main() {
  int i;
  int j;
  for (i = 0; i < 100000; i++) {
    a[i] = 42;
  }
  j = __VERIFIER_nondet_int();
  assume(j >= 0 && j < 100000);
  if (a[j] != 42) {
    ERROR: ;
  }
  return 0;
}
