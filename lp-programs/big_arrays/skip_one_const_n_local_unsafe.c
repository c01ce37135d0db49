// expect: unsafe
// why: the fill of the local array skips cell 77777, whose value stays arbitrary: j ==
// 77777 with any value but 42 fails the check
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int a[100000];
  for (int i = 0; i < 100000; i++) {
    if (i != 77777) a[i] = 42;
  }
  int j = __VERIFIER_nondet_int();
  if (!(0 <= j && j < 100000)) return 0;
  if (a[j] != 42) reach_error();
  return 0;
}
