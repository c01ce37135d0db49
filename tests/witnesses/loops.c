extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main() {
  int x = __VERIFIER_nondet_int(); int y = 0;
  for (int i = 0; i < 10; i++) { if (__VERIFIER_nondet_int() > 0) y++; }
  if (y == 0) reach_error();
  if (y == x) reach_error();
  return 0;
}
