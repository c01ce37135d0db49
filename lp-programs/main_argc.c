// expect: safe
// why: argc is an input of at least 1; argv is declared but never used
int main(int argc, char *argv[]) {
  if (argc < 1)
    reach_error();
  return 0;
}
