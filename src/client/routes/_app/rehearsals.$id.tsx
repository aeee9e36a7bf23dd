import { createFileRoute } from '@tanstack/react-router';
import { ReportPage } from '../../features/rehearsals/ReportPage';

// /rehearsals/{id}: a rehearsal's report.
export const Route = createFileRoute('/_app/rehearsals/$id')({ component: RehearsalReportRoute });

function RehearsalReportRoute() {
  const { id } = Route.useParams();
  return <ReportPage key={id} id={Number(id)} />;
}
