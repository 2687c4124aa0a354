#!/usr/bin/env escript
%% xc_launch.escript NPROC PORT GRACE_S -- CMD ARGS...: the site's Erlang job launcher. Opens one port per env://
%% rank (spawn_executable, stderr_to_stdout, line mode), writes every rank's lines to ranks/rank<R>.out as they come,
%% and reports its own events through OTP's logger into launcher.log with the legacy `=LEVEL REPORT====` header.
%% When a rank exits non-zero it waits GRACE_S seconds for the others, then TERMs them. Exit status 1 on failure.
-mode(compile).

main([NS, PS, GS, "--", Exe | Args]) ->
    N = list_to_integer(NS), Port = PS, Grace = list_to_integer(GS),
    ok = logger:set_primary_config(level, info),
    logger:remove_handler(default),
    ok = logger:add_handler(file, logger_std_h,
                            #{config => #{file => "launcher.log"},
                              formatter => {logger_formatter, #{legacy_header => true, single_line => false}}}),
    filelib:ensure_dir("ranks/x"),
    logger:info("job start: ~b ranks, MASTER_PORT ~s, command ~ts ~ts", [N, Port, Exe, lists:join(" ", Args)]),
    Ranks = [start(R, N, Port, Exe, Args) || R <- lists:seq(0, N - 1)],
    Codes = loop(maps:from_list([{P, {R, Fd, Os}} || {R, P, Fd, Os} <- Ranks]), #{}, Grace, none),
    Bad = [R || {R, C} <- lists:sort(maps:to_list(Codes)), C =/= 0],
    case Bad of
        [] -> logger:info("job end: all ~b ranks exited 0", [N]);
        _ -> logger:error("job end: ranks ~w failed, exit statuses ~w", [Bad, lists:sort(maps:to_list(Codes))])
    end,
    logger_std_h:filesync(file),
    halt(case Bad of [] -> 0; _ -> 1 end).

start(R, N, Port, Exe, Args) ->
    Env = [{"RANK", integer_to_list(R)}, {"LOCAL_RANK", integer_to_list(R)}, {"WORLD_SIZE", integer_to_list(N)},
           {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", Port}],
    P = open_port({spawn_executable, os:find_executable(Exe)},
                  [{args, Args}, {env, Env}, exit_status, stderr_to_stdout, {line, 16384}, binary]),
    {os_pid, Os} = erlang:port_info(P, os_pid),
    {ok, Fd} = file:open("ranks/rank" ++ integer_to_list(R) ++ ".out", [write, raw, binary]),
    logger:info("rank ~b started: os pid ~b, output ranks/rank~b.out", [R, Os, R]),
    {R, P, Fd, Os}.

loop(Live, Codes, _Grace, _T) when map_size(Live) =:= 0 -> Codes;
loop(Live, Codes, Grace, T) ->
    Timeout = case T of none -> infinity; _ -> max(0, T - erlang:monotonic_time(millisecond)) end,
    receive
        {P, {data, {eol, L}}} -> {_, Fd, _} = maps:get(P, Live), file:write(Fd, [L, $\n]), loop(Live, Codes, Grace, T);
        {P, {data, {noeol, L}}} -> {_, Fd, _} = maps:get(P, Live), file:write(Fd, L), loop(Live, Codes, Grace, T);
        {P, {exit_status, S}} ->
            {R, Fd, Os} = maps:get(P, Live), file:close(Fd),
            Live2 = maps:remove(P, Live),
            case S of
                0 -> logger:info("rank ~b (os pid ~b) exited with status 0", [R, Os]), loop(Live2, Codes#{R => S}, Grace, T);
                _ ->
                    logger:error("rank ~b (os pid ~b) exited with status ~b; ~b rank(s) still running",
                                 [R, Os, S, map_size(Live2)]),
                    T2 = case T of none -> erlang:monotonic_time(millisecond) + Grace * 1000; _ -> T end,
                    loop(Live2, Codes#{R => S}, Grace, T2)
            end
    after Timeout ->
        [begin logger:warning("rank ~b (os pid ~b) still running ~bs after the first failure, sending SIGTERM",
                              [R, Os, Grace]),
               os:cmd("kill -TERM " ++ integer_to_list(Os)) end || {R, _, Os} <- maps:values(Live)],
        loop(Live, Codes, Grace, erlang:monotonic_time(millisecond) + 3600000)
    end.
