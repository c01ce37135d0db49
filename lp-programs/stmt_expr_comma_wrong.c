// expect: unsafe
// why: the left operand of the comma increments x (it is not dropped), so x == 4 and the error is reached
int main(void) {
  int x = 3;
  int z = (x++, ({ int t = x; t * 2; }));
  if (x == 4 && z == 8)
    reach_error();
  return 0;
}
