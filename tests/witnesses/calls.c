extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int twice(int v) { return 2 * v; }
int main() {
  int a = __VERIFIER_nondet_int();
  int b = twice(a);
  if (b == 8) reach_error();
  return 0;
}
