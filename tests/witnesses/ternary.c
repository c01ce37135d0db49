extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main() {
  int a = __VERIFIER_nondet_int();
  int m = a > 5 ? a : 5;
  if (m == 7) reach_error();
  return 0;
}
