// expect: safe
// why: the endless loop is left only by the goto at i == 5, so i is 5 at `done`
int main(void) {
  int i = 0;
  while (1) {
    if (i == 5)
      goto done;
    i++;
  }
done:
  if (i != 5)
    reach_error();
  return 0;
}
