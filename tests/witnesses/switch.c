extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main() {
  int c = __VERIFIER_nondet_int();
  int r = 0;
  switch (c) {
  case 1: r = 10; break;
  case 2: r = 20; break;
  default: r = 30;
  }
  if (r == 20) reach_error();
  if (r == 30) reach_error();
  return 0;
}
