// expect: unsafe
// why: the loop is left by the goto at i == 5, so the claim i != 5 fails there
int main(void) {
  int i = 0;
  while (1) {
    if (i == 5)
      goto done;
    i++;
  }
done:
  if (i == 5)
    reach_error();
  return 0;
}
