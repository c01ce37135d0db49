extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main() {
  int x = __VERIFIER_nondet_int();
  if (x > 10) {
    if (x < 5) x = 0;
  }
  if (x == 0) reach_error();
  return 0;
}
