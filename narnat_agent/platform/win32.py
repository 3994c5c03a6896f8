"""The Windows API calls the Windows sides of the seams make, through ctypes: Job objects, processes, the console's
mode and its keys, and a file's access list. Imported only on Windows."""

import ctypes
import sys
from ctypes import wintypes

assert sys.platform == "win32"  # the type checker, on any system, reads what follows as Windows code

kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
advapi32 = ctypes.WinDLL("advapi32", use_last_error=True)
ntdll = ctypes.WinDLL("ntdll")

STILL_ACTIVE = 259
SYNCHRONIZE = 0x00100000
PROCESS_TERMINATE = 0x0001
PROCESS_SET_QUOTA = 0x0100
PROCESS_SUSPEND_RESUME = 0x0800
PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
ERROR_ACCESS_DENIED = 5
JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x2000
JobObjectBasicAccountingInformation = 1
JobObjectExtendedLimitInformation = 9
CREATE_SUSPENDED = 0x00000004
STD_INPUT_HANDLE = -10
TOKEN_QUERY = 0x0008
TokenUser = 1
DACL_SECURITY_INFORMATION = 0x00000004
PROTECTED_DACL_SECURITY_INFORMATION = 0x80000000
SDDL_REVISION_1 = 1


class IO_COUNTERS(ctypes.Structure):  # noqa: N801 (the API's names)
    _fields_ = [(name, ctypes.c_ulonglong) for name in (
        "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
        "ReadTransferCount", "WriteTransferCount", "OtherTransferCount",
    )]  # fmt: skip


class JOBOBJECT_BASIC_LIMIT_INFORMATION(ctypes.Structure):  # noqa: N801
    _fields_ = [
        ("PerProcessUserTimeLimit", ctypes.c_int64),
        ("PerJobUserTimeLimit", ctypes.c_int64),
        ("LimitFlags", wintypes.DWORD),
        ("MinimumWorkingSetSize", ctypes.c_size_t),
        ("MaximumWorkingSetSize", ctypes.c_size_t),
        ("ActiveProcessLimit", wintypes.DWORD),
        ("Affinity", ctypes.c_size_t),
        ("PriorityClass", wintypes.DWORD),
        ("SchedulingClass", wintypes.DWORD),
    ]


class JOBOBJECT_EXTENDED_LIMIT_INFORMATION(ctypes.Structure):  # noqa: N801
    _fields_ = [
        ("BasicLimitInformation", JOBOBJECT_BASIC_LIMIT_INFORMATION),
        ("IoInfo", IO_COUNTERS),
        ("ProcessMemoryLimit", ctypes.c_size_t),
        ("JobMemoryLimit", ctypes.c_size_t),
        ("PeakProcessMemoryUsed", ctypes.c_size_t),
        ("PeakJobMemoryUsed", ctypes.c_size_t),
    ]


class JOBOBJECT_BASIC_ACCOUNTING_INFORMATION(ctypes.Structure):  # noqa: N801
    _fields_ = [
        ("TotalUserTime", ctypes.c_int64),
        ("TotalKernelTime", ctypes.c_int64),
        ("ThisPeriodTotalUserTime", ctypes.c_int64),
        ("ThisPeriodTotalKernelTime", ctypes.c_int64),
        ("TotalPageFaultCount", wintypes.DWORD),
        ("TotalProcesses", wintypes.DWORD),
        ("ActiveProcesses", wintypes.DWORD),
        ("TotalTerminatedProcesses", wintypes.DWORD),
    ]


class KEY_EVENT_RECORD(ctypes.Structure):  # noqa: N801
    _fields_ = [
        ("bKeyDown", wintypes.BOOL),
        ("wRepeatCount", wintypes.WORD),
        ("wVirtualKeyCode", wintypes.WORD),
        ("wVirtualScanCode", wintypes.WORD),
        ("UnicodeChar", wintypes.WCHAR),
        ("dwControlKeyState", wintypes.DWORD),
    ]


class INPUT_RECORD(ctypes.Structure):  # noqa: N801 (a key event; the other events are the same size)
    _fields_ = [("EventType", wintypes.WORD), ("KeyEvent", KEY_EVENT_RECORD)]


KEY_EVENT = 0x0001
VK_ESCAPE = 0x1B


def _declare(function, result, *arguments) -> None:
    function.restype, function.argtypes = result, list(arguments)


_declare(kernel32.CreateJobObjectW, wintypes.HANDLE, wintypes.LPVOID, wintypes.LPCWSTR)
_declare(kernel32.SetInformationJobObject, wintypes.BOOL, wintypes.HANDLE, ctypes.c_int, wintypes.LPVOID,
         wintypes.DWORD)  # fmt: skip
_declare(kernel32.QueryInformationJobObject, wintypes.BOOL, wintypes.HANDLE, ctypes.c_int, wintypes.LPVOID,
         wintypes.DWORD, wintypes.LPDWORD)  # fmt: skip
_declare(kernel32.AssignProcessToJobObject, wintypes.BOOL, wintypes.HANDLE, wintypes.HANDLE)
_declare(kernel32.TerminateJobObject, wintypes.BOOL, wintypes.HANDLE, wintypes.UINT)
_declare(kernel32.OpenProcess, wintypes.HANDLE, wintypes.DWORD, wintypes.BOOL, wintypes.DWORD)
_declare(kernel32.GetExitCodeProcess, wintypes.BOOL, wintypes.HANDLE, wintypes.LPDWORD)
_declare(kernel32.TerminateProcess, wintypes.BOOL, wintypes.HANDLE, wintypes.UINT)
_declare(kernel32.CloseHandle, wintypes.BOOL, wintypes.HANDLE)
_declare(kernel32.GetCurrentProcess, wintypes.HANDLE)
_declare(kernel32.GetStdHandle, wintypes.HANDLE, wintypes.DWORD)
_declare(kernel32.GetConsoleMode, wintypes.BOOL, wintypes.HANDLE, wintypes.LPDWORD)
_declare(kernel32.SetConsoleMode, wintypes.BOOL, wintypes.HANDLE, wintypes.DWORD)
_declare(kernel32.PeekConsoleInputW, wintypes.BOOL, wintypes.HANDLE, ctypes.POINTER(INPUT_RECORD), wintypes.DWORD,
         wintypes.LPDWORD)  # fmt: skip
_declare(kernel32.LocalFree, wintypes.HLOCAL, wintypes.HLOCAL)
_declare(kernel32.GetUserDefaultUILanguage, wintypes.WORD)
_declare(ntdll.NtResumeProcess, ctypes.c_long, wintypes.HANDLE)
_declare(advapi32.OpenProcessToken, wintypes.BOOL, wintypes.HANDLE, wintypes.DWORD, ctypes.POINTER(wintypes.HANDLE))
_declare(advapi32.GetTokenInformation, wintypes.BOOL, wintypes.HANDLE, ctypes.c_int, wintypes.LPVOID, wintypes.DWORD,
         wintypes.LPDWORD)  # fmt: skip
_declare(advapi32.ConvertSidToStringSidW, wintypes.BOOL, wintypes.LPVOID, ctypes.POINTER(wintypes.LPWSTR))
_declare(advapi32.ConvertStringSecurityDescriptorToSecurityDescriptorW, wintypes.BOOL, wintypes.LPCWSTR,
         wintypes.DWORD, ctypes.POINTER(wintypes.LPVOID), wintypes.LPDWORD)  # fmt: skip
_declare(advapi32.ConvertSecurityDescriptorToStringSecurityDescriptorW, wintypes.BOOL, wintypes.LPVOID,
         wintypes.DWORD, wintypes.DWORD, ctypes.POINTER(wintypes.LPWSTR), wintypes.LPDWORD)  # fmt: skip
_declare(advapi32.SetFileSecurityW, wintypes.BOOL, wintypes.LPCWSTR, wintypes.DWORD, wintypes.LPVOID)
_declare(advapi32.GetFileSecurityW, wintypes.BOOL, wintypes.LPCWSTR, wintypes.DWORD, wintypes.LPVOID, wintypes.DWORD,
         wintypes.LPDWORD)  # fmt: skip


def _check(ok: object) -> None:
    if not ok:
        raise ctypes.WinError(ctypes.get_last_error())


def close(handle: int) -> None:
    kernel32.CloseHandle(handle)


def killing_job() -> int:
    """A new Job object whose processes all end when its last handle closes: when Narnat closes it, or dies."""
    job = kernel32.CreateJobObjectW(None, None)
    _check(job)
    limits = JOBOBJECT_EXTENDED_LIMIT_INFORMATION()
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    try:
        _check(kernel32.SetInformationJobObject(job, JobObjectExtendedLimitInformation, ctypes.byref(limits),
                                                ctypes.sizeof(limits)))  # fmt: skip
    except OSError:
        close(job)
        raise
    return job


def adopt_suspended(job: int, pid: int) -> None:
    """The process, started suspended, put in the job and then let run: none of its children can start outside."""
    process = kernel32.OpenProcess(PROCESS_SET_QUOTA | PROCESS_TERMINATE | PROCESS_SUSPEND_RESUME, False, pid)
    _check(process)
    try:
        try:
            _check(kernel32.AssignProcessToJobObject(job, process))
        finally:
            status = ntdll.NtResumeProcess(process)
        if status != 0:
            kernel32.TerminateProcess(process, 1)
            raise OSError(f"the process could not be resumed (NTSTATUS {status & 0xFFFFFFFF:#x})")
    finally:
        close(process)


def active_processes(job: int) -> int:
    info = JOBOBJECT_BASIC_ACCOUNTING_INFORMATION()
    _check(kernel32.QueryInformationJobObject(job, JobObjectBasicAccountingInformation, ctypes.byref(info),
                                              ctypes.sizeof(info), None))  # fmt: skip
    return int(info.ActiveProcesses)


def terminate_job(job: int) -> None:
    _check(kernel32.TerminateJobObject(job, 1))


def alive(pid: int) -> bool:
    process = kernel32.OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
    if not process:
        return ctypes.get_last_error() == ERROR_ACCESS_DENIED  # someone else's process
    try:
        code = wintypes.DWORD()
        return bool(kernel32.GetExitCodeProcess(process, ctypes.byref(code))) and code.value == STILL_ACTIVE
    finally:
        close(process)


def console_input_mode() -> tuple[int, int] | None:
    """The console input's handle and mode, or None when standard input is not a console."""
    handle = kernel32.GetStdHandle(STD_INPUT_HANDLE)
    mode = wintypes.DWORD()
    if not handle or not kernel32.GetConsoleMode(handle, ctypes.byref(mode)):
        return None
    return handle, mode.value


def set_console_mode(handle: int, mode: int) -> None:
    kernel32.SetConsoleMode(handle, mode)


def bare_escapes(handle: int) -> int:
    """How many ESC presses wait on the console as the virtual key alone, without the character "\\x1b" that
    Windows' console gives them (Wine's console does so)."""
    records = (INPUT_RECORD * 64)()
    count = wintypes.DWORD()
    if not kernel32.PeekConsoleInputW(handle, records, len(records), ctypes.byref(count)):
        return 0
    return sum(
        1
        for record in records[: count.value]
        if record.EventType == KEY_EVENT and record.KeyEvent.bKeyDown
        and record.KeyEvent.wVirtualKeyCode == VK_ESCAPE and record.KeyEvent.UnicodeChar == "\0"
    )  # fmt: skip


def ui_language() -> int:
    """The LANGID of the user's interface language."""
    return int(kernel32.GetUserDefaultUILanguage())


def _user_sid() -> str:
    token = wintypes.HANDLE()
    _check(advapi32.OpenProcessToken(kernel32.GetCurrentProcess(), TOKEN_QUERY, ctypes.byref(token)))
    try:
        size = wintypes.DWORD()
        advapi32.GetTokenInformation(token, TokenUser, None, 0, ctypes.byref(size))
        buffer = ctypes.create_string_buffer(size.value)
        _check(advapi32.GetTokenInformation(token, TokenUser, buffer, size, ctypes.byref(size)))
        sid = ctypes.cast(buffer, ctypes.POINTER(wintypes.LPVOID))[0]  # TOKEN_USER starts with the SID's address
        text = wintypes.LPWSTR()
        _check(advapi32.ConvertSidToStringSidW(sid, ctypes.byref(text)))
        try:
            return str(text.value)
        finally:
            kernel32.LocalFree(ctypes.cast(text, wintypes.HLOCAL))
    finally:
        close(token.value or 0)


def user_alone() -> str:
    """The access list, in SDDL, that gives the current user full access and nobody else any, inheriting nothing."""
    return f"D:P(A;;FA;;;{_user_sid()})"


def set_access(path: str, sddl: str) -> None:
    descriptor = wintypes.LPVOID()
    _check(advapi32.ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1,
                                                                         ctypes.byref(descriptor), None))  # fmt: skip
    try:
        which = DACL_SECURITY_INFORMATION | PROTECTED_DACL_SECURITY_INFORMATION
        _check(advapi32.SetFileSecurityW(path, which, descriptor))
    finally:
        kernel32.LocalFree(ctypes.cast(descriptor, wintypes.HLOCAL))


def access(path: str) -> str:
    """A file's access list, in SDDL."""
    size = wintypes.DWORD()
    advapi32.GetFileSecurityW(path, DACL_SECURITY_INFORMATION, None, 0, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    _check(advapi32.GetFileSecurityW(path, DACL_SECURITY_INFORMATION, buffer, size, ctypes.byref(size)))
    text = wintypes.LPWSTR()
    _check(advapi32.ConvertSecurityDescriptorToStringSecurityDescriptorW(buffer, SDDL_REVISION_1,
                                                                         DACL_SECURITY_INFORMATION,
                                                                         ctypes.byref(text), None))  # fmt: skip
    try:
        return str(text.value)
    finally:
        kernel32.LocalFree(ctypes.cast(text, wintypes.HLOCAL))
