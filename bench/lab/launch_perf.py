#!/usr/bin/env python3
"""bench/lab/launch_perf.py SAMPLES N PERIOD_US: docs/bench-notes/24.

SAMPLES is bench/lab/launch_perf.sh's perf script output of N launches sampled every PERIOD_US
(100 at 10 kHz). Each sample goes to one category by its stack: the syscall it is in (clone's
namespaces one by one, the copy of the memory, exit's mm teardown and namespaces, seccomp's
JIT and conversion, exec), page faults, glibc's CPUID probing in the dynamic loader (each
CPUID leaves the VM: handle_amd, init_cpu_features), the rest of the loader, other user code.
Prints the CPU us per launch of each category of 3 us or more.
"""
import collections
import sys
path, n, period = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
samples=[];cur=None
for line in open(path):
    line=line.rstrip('\n')
    if not line.strip():
        if cur: samples.append(cur); cur=None
        continue
    if not line.startswith('\t'):
        cur={'comm':line.split()[0],'frames':[]}
    else:
        f=line.split(); cur['frames'].append(' '.join(f[1:]) if len(f)>1 else '?')
if cur: samples.append(cur)
CPUID={'handle_amd','init_cpu_features.constprop.0','get_common_indices.constprop.0','update_active.constprop.0','init_cacheinfo','intel_check_word','handle_intel'}
def cat(fr):
    s=set(fr)
    if not fr: return 'empty'
    if 'do_syscall_64' in s:
        i=fr.index('do_syscall_64'); sc=fr[i-1] if i>0 else '?'
        if sc=='x64_sys_call' and i>1: sc=fr[i-2]
        if 'copy_namespaces' in s:
            for ns in ('copy_net_ns','copy_mnt_ns','copy_ipcs','copy_pid_ns','copy_utsname','copy_cgroup_ns','create_user_ns','copy_time_ns'):
                if ns in s: return 'clone:'+ns
            return 'clone:ns-other'
        if 'create_user_ns' in s: return 'clone:create_user_ns'
        if 'dup_mmap' in s: return 'clone/fork:dup_mmap'
        if 'kernel_clone' in s: return 'clone/fork:other'
        if 'do_exit' in s:
            if '__mmput' in s or 'exit_mmap' in s: return 'exit:mmput'
            if 'free_nsproxy' in s or 'exit_task_namespaces' in s: return 'exit:namespaces'
            if 'zap_pid_ns_processes' in s: return 'exit:zap_pid_ns'
            return 'exit:other'
        if 'do_seccomp' in s:
            if 'bpf_int_jit_compile' in s: return 'seccomp:jit'
            if 'bpf_convert_filter' in s: return 'seccomp:convert'
            return 'seccomp:other'
        if 'bprm_execve' in s or 'do_execveat_common.isra.0' in s:
            if 'exec_mmap' in s or 'mmput' in s or '__mmput' in s: return 'exec:old-mm-teardown'
            return 'exec:other'
        return 'sys:'+sc
    if 'asm_exc_page_fault' in s: return 'pagefault'
    if fr[0] in CPUID: return 'user:cpuid(ld.so)'
    if fr[0].startswith('[') or fr[0]=='?': return 'user:unknown'
    if 'ret_from_fork_asm' in s or 'ret_from_fork' in s: return 'kernel:ret_from_fork'
    if 'syscall_exit_to_user_mode' in s or 'irqentry_exit_to_user_mode' in s: return 'kernel:exit_to_user'
    if any(x.startswith('asm_') for x in fr): return 'kernel:irq/other'
    if any(f.startswith(('_dl_','do_lookup_x','check_match','dl_main','_dl')) or f=='strcmp' for f in fr[:1]): return 'user:ld.so'
    return 'user:other'
c=collections.Counter(cat(s['frames']) for s in samples)
tot=sum(c.values())
print(f"# {tot*period/n:.0f} us CPU per launch ({tot} samples, {n} launches)")
for k,v in sorted(c.items(), key=lambda x:-x[1]):
    if v*period/n >= 3: print(f"{k:36s} {v*period/n:8.1f}")
