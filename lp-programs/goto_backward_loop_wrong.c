// expect: unsafe
// why: the backward goto loop adds 2 four times, so s == 8 and the error is reached
int main(void) {
  int i = 0, s = 0;
again:
  if (i < 4) {
    s = s + 2;
    i++;
    goto again;
  }
  if (s == 8)
    goto ERROR;
  return 0;
ERROR:
  reach_error();
  return 1;
}
