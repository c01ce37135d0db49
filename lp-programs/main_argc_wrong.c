// expect: unsafe
// why: argc is an arbitrary input >= 1, e.g. 3
int main(int argc, char **argv) {
  if (argc == 3)
    reach_error();
  return 0;
}
