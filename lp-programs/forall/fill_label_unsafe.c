// expect: unsafe
// why: the loop stops one cell short, so a[999] keeps its arbitrary initial value: j = 999 with
// a[999] != 42 reaches ERROR
int main() {
  int a[1000];
  int i;
  int j;
  for (i = 0; i < 999; i++) {
    a[i] = 42;
  }
  j = __VERIFIER_nondet_int();
  assume(j >= 0 && j < 1000);
  if (a[j] != 42) {
    ERROR: ;
  }
  return 0;
}
