// SPDX-License-Identifier: GPL-2.0
/* The entry point of the test executables (tests/readelf.mk). */
long frames_run(int x);
long cfi_run(long x);

int main(int argc, char **argv)
{
	(void)argv;
	return (int)((frames_run(argc) + cfi_run(argc)) & 1);
}
